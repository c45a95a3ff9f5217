const INT64_MAX = 9_223_372_036_854_775_807n;

/** Go's strconv.ParseInt(value, 10, 64): an optional sign and decimal digits within int64; undefined when it fails. */
export function goInt(value: string): number | undefined {
  if (!/^[+-]?\d+$/.test(value)) return undefined;
  // Leading zeros are allowed (as Go); more than 19 significant digits never fit (and are not parsed).
  if (value.replace(/^[+-]?0*/, '').length > 19) return undefined;
  const big = BigInt(value);
  if (big > INT64_MAX || big < -INT64_MAX - 1n) return undefined;
  return Number(big);
}
