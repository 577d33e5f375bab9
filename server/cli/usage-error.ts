/** A command given something it cannot use (a plan that does not exist, flags that conflict): exit 2, as for a bad flag. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
