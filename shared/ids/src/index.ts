export { newId, isValidId, encodeBase32, ID_ALPHABET, ID_LENGTH } from './new-id';
