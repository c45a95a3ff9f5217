/** sharp, imported once on first use (its native module costs start-up time), with libvips' cache off. */
const loadSharp = async () => {
  const { default: sharp } = await import('sharp');
  sharp.cache(false);
  return sharp;
};
let loading: ReturnType<typeof loadSharp> | undefined;
export const sharpModule = (): ReturnType<typeof loadSharp> => (loading ??= loadSharp());

/** A libvips error's message, for the answer's detail. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
