export { connectMongo, mongoHealthy, type MongoOptions } from './connect';
export { toPlain, toDocument, isDuplicateKeyError, duplicateKeyField } from './plain';
export { SCHEMA_OPTIONS, modelOn, setOf, isUniqueViolation } from './schema-support';
export { Schema, type Connection, type Model } from 'mongoose';
