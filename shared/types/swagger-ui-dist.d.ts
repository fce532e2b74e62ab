/** swagger-ui-dist ships no types; this is the one file of it the service imports. */
declare module 'swagger-ui-dist/absolute-path.js' {
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
