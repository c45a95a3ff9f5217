/** The prototype of every `res.locals` made here: no properties, and no prototype of its own. */
const NO_PROPERTIES: object = Object.create(null) as object;

/**
 * An empty `res.locals` with nothing inherited, as express's `Object.create(null)`, but an ordinary (fast)
 * object: V8 makes an object without a prototype a dictionary from birth (~160 B of property table, 256 B once
 * the gateway has stored its four locals), held by every open request, thousands of waiting long-polls at once.
 * Express keeps a `res.locals` it finds already set.
 */
export function newLocals(): Record<string, unknown> {
  return Object.create(NO_PROPERTIES) as Record<string, unknown>;
}
