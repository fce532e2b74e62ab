/** Small helpers of the bench scenarios that call the API. */

/** A calendar date `offset` days from today (UTC). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The response when it has the expected status; otherwise an error naming the step, the status and the body. */
export const expectStatus = <R extends { status: number; raw: string }>(res: R, status: number, what: string): R => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.raw}`);
  return res;
};
