// src/validation/error-collector.ts: the nesting convention of the 400 body.
import t from 'tap';
import { FieldErrorCollector } from '../../src/validation/error-collector.js';

t.test('a field gets a list of messages, without repeats', async (t) => {
  const collector = new FieldErrorCollector({ reference: '' });
  collector.add(['reference'], 'This field may not be blank.');
  collector.add(['reference'], 'This field may not be blank.');
  collector.add(['reference'], 'Another.');
  t.strictSame(collector.errors, { reference: ['This field may not be blank.', 'Another.'] });
});

t.test('an empty path is the body as a whole', async (t) => {
  const collector = new FieldErrorCollector({});
  collector.add([], 'Send cargo.');
  t.strictSame(collector.errors, { non_field_errors: ['Send cargo.'] });
});

t.test('lists of objects nest by index with {} for the elements that are fine', async (t) => {
  const collector = new FieldErrorCollector({ order_items: [{}, {}, {}] });
  collector.add(['order_items', 1, 'quantity'], 'Too small.');
  t.strictSame(collector.errors, { order_items: [{}, { quantity: ['Too small.'] }, {}] });
});

t.test('nesting goes as deep as the document', async (t) => {
  const body = { company_groups: [{ lanes: [{}, { items: [{ weight: 0 }] }] }] };
  const collector = new FieldErrorCollector(body);
  collector.add(['company_groups', 0, 'lanes', 1, 'items', 0, 'weight'], 'Ensure this value is greater than 0.');
  t.strictSame(collector.errors, { company_groups: [{ lanes: [{}, { items: [{ weight: ['Ensure this value is greater than 0.'] }] }] }] });
});

t.test('lists of strings nest as an object keyed by index', async (t) => {
  const collector = new FieldErrorCollector({ extra_recipients: ['ok@example.com', 'bad', 'worse'] });
  collector.add(['extra_recipients', 1], 'Bad address.');
  collector.add(['extra_recipients', 2], 'Bad address.');
  t.strictSame(collector.errors, { extra_recipients: { 1: ['Bad address.'], 2: ['Bad address.'] } });
});

t.test('a message about a list that already has element errors goes one level up', async (t) => {
  const collector = new FieldErrorCollector({ shipment_skus: [{}], order_items: [] });
  collector.add(['shipment_skus', 0, 'item'], 'Required.');
  collector.add(['shipment_skus'], 'Send either order_items or shipment_skus.');
  t.strictSame(collector.errors, {
    shipment_skus: [{ item: ['Required.'] }],
    non_field_errors: ['shipment_skus: Send either order_items or shipment_skus.'],
  });
});

t.test('an element error under a field that holds messages is kept, prefixed with its path', async (t) => {
  const collector = new FieldErrorCollector({ order_items: [{}] });
  collector.add(['order_items'], 'Odd.');
  collector.add(['order_items', 0, 'item'], 'Required.');
  t.strictSame(collector.errors, { order_items: ['Odd.', '[0].item: Required.'] });
});
