// What start-up started, undone in reverse from one list. Each part registers how to stop it as soon
// as it has started, so a failure later in start-up undoes exactly what ran so far, and a clean stop
// undoes everything in the same order, with no second list to keep in step with the first.
//
// Parts are grouped in stages. The stages stop one after the other, the last started first: what
// depends on a part started after it and stops before it. The parts of one stage stop together,
// because some must: a consumer told to stop while the planner it waits for is closed stops without
// moving its checkpoint past the plan it lost, where one stopped before the planner would wait for the
// plan to finish.

type Stop = () => Promise<unknown> | unknown;

export class Teardown {
  readonly #stages: { name: string; stops: Stop[] }[] = [];

  /** The parts registered from now on stop together, before every part of the earlier stages. */
  stage(name: string): void {
    this.#stages.push({ name, stops: [] });
  }

  /** Registers how to stop `part`, just started, in the current stage; returns the part. */
  add<T>(part: T, stop: (part: T) => Promise<unknown> | unknown): T {
    if (this.#stages.length === 0) this.stage('first');
    this.#stages.at(-1)!.stops.push(() => stop(part));
    return part;
  }

  /** Runs a step of start-up; if it throws, undoes what started so far and throws its error. */
  async orUnwind<T>(step: () => Promise<T> | T): Promise<T> {
    try {
      return await step();
    } catch (error) {
      await this.unwind().catch(() => {});
      throw error;
    }
  }

  /**
   * Stops every part, the stages in reverse order. A part that fails to stop does not keep the others
   * running: every stage is stopped, and the first failure is thrown at the end. Undoes each part once.
   */
  async unwind(): Promise<void> {
    let failure: PromiseRejectedResult | undefined;
    for (const { stops } of this.#stages.splice(0).reverse()) {
      const outcomes = await Promise.allSettled(stops.map(async (stop) => stop()));
      failure ??= outcomes.find((outcome) => outcome.status === 'rejected');
    }
    if (failure) throw failure.reason;
  }
}
