/** Which methods the route table serves on a concrete path (`/api/v1/admin/users/01J…` matches `{userId}`). */
export function allowedMethods(routes: ReadonlyArray<{ method: string; path: string }>, path: string): string[] {
  const segments = path.replace(/\/+$/, '').split('/');
  const methods = routes
    .filter((r) => {
      const tpl = r.path.replace(/\/+$/, '').split('/');
      return tpl.length === segments.length && tpl.every((t, i) => (t.startsWith('{') && segments[i] !== '') || t === segments[i]);
    })
    .map((r) => r.method);
  return [...new Set(methods)].sort();
}
