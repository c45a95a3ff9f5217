import { systemConfigPatchSchema } from '@switchyard/system-config';

/** A config document (full or partial): every known key keeps its JSON type. */
export const configBody = systemConfigPatchSchema.required();
