// The order's command handler: the order decider in the one command handler (src/decider). When
// another writer got there first, the command is decided again on what the stream holds now (a
// submit then meets a taken reference; a second plan result records nothing).
import { commandHandler, type CommandResult } from '../decider/handle-command.js';
import type { FieldErrors } from '../validation/field-errors.js';
import { orderDecider, type OrderCommand, type OrderState } from './order-decider.js';
import type { OrderEvent } from './order-events.js';
import { orderEventsIn } from './read-order-stream.js';

export type OrderCommandResult = CommandResult<OrderState, OrderEvent, FieldErrors>;

const orders = commandHandler<OrderCommand, OrderState, OrderEvent, FieldErrors>(orderDecider, orderEventsIn);

/** The state an order's stored events fold to. */
export const orderStateOf = orders.stateOf;

/** `read`: the stream as just read, when the caller has it (it is decided on first). */
export const handleOrderCommand = orders.handle;
