// A set of order ids as one bit each. Ids are handed out densely from 1, so a pass of the scrubber holds
// one bit per order until it ends, not a Set's entry (an object slot and a hash-table slot) per order.
export class OrderIdBits {
  #bits = new Uint8Array(1024);

  has(id: number): boolean {
    const byte = Math.floor(id / 8);
    return id >= 0 && byte < this.#bits.length && (this.#bits[byte]! & (1 << (id % 8))) !== 0;
  }

  add(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0 || id >= 2 ** 32) throw new RangeError(`not an order id: ${id}`);
    const byte = Math.floor(id / 8);
    if (byte >= this.#bits.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.#bits.length * 2));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    this.#bits[byte]! |= 1 << (id % 8);
  }
}
