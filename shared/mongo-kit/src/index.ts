export { connectMongo, mongoHealthy, type MongoOptions } from './connect';
export { toPlain, toDocument, isDuplicateKeyError, duplicateKeyField } from './plain';
export { Schema, type Connection, type Model } from 'mongoose';
