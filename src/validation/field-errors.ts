// The 400 body shape of the spec (`{"order": ["..."]}`): each bad field maps to a list of messages;
// errors inside arrays of objects are nested by index, with `{}` for the elements that are fine;
// errors about the object as a whole go under `non_field_errors`.

export type FieldErrors = { [field: string]: string[] | FieldErrors | FieldErrors[] };

export const NON_FIELD_ERRORS = 'non_field_errors';

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** Adds a message under a field, creating the list when needed. */
export function addError(errors: FieldErrors, field: string, message: string): void {
  const existing = errors[field];
  if (Array.isArray(existing) && (existing.length === 0 || typeof existing[0] === 'string')) {
    (existing as string[]).push(message);
  } else {
    errors[field] = [message];
  }
}

/** Adds a message under `field[index].subfield`, keeping `{}` for the elements without errors. */
export function addElementError(
  errors: FieldErrors,
  field: string,
  length: number,
  index: number,
  subfield: string,
  message: string,
): void {
  let list = errors[field];
  if (!Array.isArray(list) || (list.length > 0 && typeof list[0] === 'string')) {
    list = Array.from({ length }, () => ({}));
    errors[field] = list;
  }
  const element = (list as FieldErrors[])[index];
  if (element) addError(element, subfield, message);
}
