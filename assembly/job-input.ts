// The buffer the host writes each job into, shared by the service's entry points (index.ts) and the
// tests' (checks/index.ts).
import { InputReader } from './wire';

let input: StaticArray<i32> = new StaticArray<i32>(0);
let inputLen: i32 = 0;

/** A buffer of this many elements for the next job: its address, for the host to write into. */
export function newJobInput(length: i32): usize {
  input = new StaticArray<i32>(length);
  inputLen = length;
  return changetype<usize>(input);
}

/** The job just written. */
export function jobInput(): InputReader {
  return new InputReader(input, inputLen);
}
