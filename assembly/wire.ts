// The framing of the flat i32 wire between the host and the planner: the host writes a job into linear
// memory, the planner answers with one i32 array whose first element is its length. What the elements
// are, job by job, is wire-layout.ts, written from the one description both ends share
// (scripts/planner-wire/layout.js).

export class InputReader {
  pos: i32 = 0;
  constructor(public data: StaticArray<i32>, public len: i32) {}
  /** The next element; 0 past the end (which whole() then refuses). */
  next(): i32 {
    const at = this.pos++;
    return at < this.len ? unchecked(this.data[at]) : 0;
  }
  /** Every element was read, and none past the end: the input is the layout it was read by. */
  whole(): bool {
    return this.pos == this.len;
  }
}

export class OutputWriter {
  data: StaticArray<i32>;
  len: i32 = 1;
  constructor(capacity: i32) {
    this.data = new StaticArray<i32>(max(capacity, 2));
  }
  push(v: i32): void {
    if (this.len >= this.data.length) {
      const bigger = new StaticArray<i32>(this.data.length * 2);
      memory.copy(changetype<usize>(bigger), changetype<usize>(this.data), (<usize>this.len) << 2);
      this.data = bigger;
    }
    unchecked((this.data[this.len++] = v));
  }
  /** Reserves one element to fill in later; returns its position. */
  reserve(): i32 {
    this.push(0);
    return this.len - 1;
  }
  set(pos: i32, v: i32): void {
    unchecked((this.data[pos] = v));
  }
  finish(): StaticArray<i32> {
    unchecked((this.data[0] = this.len));
    return this.data;
  }
}
