// given/when/then helpers for deciders and projections: events in, events (or errors) out.
import { decideApplyMasterData } from '../../src/master-data/apply-master-data.js';
import type { MasterDataDocument } from '../../src/master-data/master-data-document.js';
import { evolveMasterData, initialMasterData, type MasterData, type MasterDataEvent } from '../../src/master-data/master-data.js';
import type { RecordedEvent } from '../../src/eventstore/event-store.js';

export function masterDataFrom(events: readonly MasterDataEvent[]): MasterData {
  const state = initialMasterData();
  for (const event of events) evolveMasterData(state, event);
  return state;
}

export function eventsFor(document: MasterDataDocument): MasterDataEvent[] {
  const decision = decideApplyMasterData(document, initialMasterData());
  if (!decision.ok) throw new Error(`seed rejected: ${JSON.stringify(decision.errors)}`);
  return decision.events;
}

let position = 0n;
export function recorded<T extends { type: string; data: unknown }>(event: T, stream = 'test-stream'): RecordedEvent {
  position += 1n;
  return { id: `event-${position}`, stream, type: event.type, data: event.data, revision: 0n, position, recordedAt: new Date() };
}
