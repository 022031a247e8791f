// The one ajv instance of the service. typebox 1.x emits JSON Schema 2020-12, hence ajv/dist/2020.
// Every schema is compiled once, on first use, and the validator kept for the process lifetime.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { decimalKeyword } from './decimal-schema.js';
import { isValidEmail } from './email.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export const ajv = new Ajv2020({
  allErrors: true, // report every problem of a payload at once
  verbose: true, // errors carry their schema and data, which the translation into messages needs
  strict: true,
  allowUnionTypes: true, // `type: ["integer", "null"]` is how nullable fields are written
});
addFormats(ajv, ['uri', 'date-time']);
// The service's own e-mail rule, so that the schema keyword and hand-written checks agree.
ajv.addFormat('email', { type: 'string', validate: isValidEmail });
ajv.addKeyword(decimalKeyword);

const compiled = new WeakMap<object, ValidateFunction>();

/** The cached validator of a schema (by identity). */
export function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}
