export { newId, isValidId, encodeBase32, ID_ALPHABET, ID_LENGTH } from './new-id';
export { systemClock, randomIds, ManualClock, type Clock, type IdGenerator } from './clock';
