/** The requirements' limits on webhook titles and descriptions, shared by both webhook forms. */
export const TITLE_MAX = 64;
export const DESCRIPTION_MAX = 500;

/** Title (required, at most 64) and description (at most 500), in words. */
export function hookTextProblems(title: string, description: string): { title?: string; description?: string } {
  return {
    ...(title.trim() === '' ? { title: 'A title is required.' } : title.length > TITLE_MAX ? { title: `At most ${TITLE_MAX} characters (now ${title.length}).` } : {}),
    ...(description.length > DESCRIPTION_MAX ? { description: `At most ${DESCRIPTION_MAX} characters (now ${description.length}).` } : {}),
  };
}
