/**
 * Optimistic concurrency for every change: the version the caller read, given as a precondition (an
 * entry point's own way of naming it, such as an HTTP `If-Match`, described by `source` for the
 * message) and/or stated with the change itself (`version` in a body).
 */
export interface Precondition {
  version: number;
  source: string;
}
