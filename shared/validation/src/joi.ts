import BaseJoi from 'joi';

/**
 * The joi every request schema is built with. Its one rule: **JSON `null` means "not set"**, as when the
 * reference decodes a body into a Go struct or map (a null leaves the field at its zero value or nil
 * pointer). Every schema made with it treats `null` as absent, so a declared key sent as `null` takes its
 * default, or is left out, or fails `required()` exactly as a missing key does. Keys no schema declares
 * (free-form `props`) keep their nulls, as a Go `map[string]interface{}` does.
 */
export const Joi: BaseJoi.Root = BaseJoi.defaults((schema) => schema.empty(null));
