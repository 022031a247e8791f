// How the searches' buffers grow (a beam's greedy paths, the child memo, the fit cache's lists):
// doubling, so a run of appends copies each value a bounded number of times.

/** a, or a copy twice as long (and more while short of n) holding a's values. */
export function room<T>(a: StaticArray<T>, n: i32): StaticArray<T> {
  if (n <= a.length) return a;
  let len = max(16, a.length * 2);
  while (len < n) len *= 2;
  const grown = new StaticArray<T>(len);
  memory.copy(changetype<usize>(grown), changetype<usize>(a), (<usize>a.length) * sizeof<T>());
  return grown;
}
