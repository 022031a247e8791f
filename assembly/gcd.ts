// The greatest common divisor: the step of a table over sums of lengths (every sum of them is a
// multiple of it), so the table has that many times fewer cells and the same answers.

export function gcd(a: i32, b: i32): i32 {
  while (b != 0) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}
