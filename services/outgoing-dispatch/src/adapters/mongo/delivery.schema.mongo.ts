import { type Connection, type Model, modelOn, Schema, SCHEMA_OPTIONS, toDocument, toPlain } from '@switchyard/mongo-kit';
import type { Delivery } from '../../domain/entities';

export const DELIVERIES_COLLECTION = 'outgoing_deliveries';

export type DeliveryDocument = Omit<Delivery, 'id'> & { _id: string };

export const deliverySchema = new Schema<DeliveryDocument>(
  {
    _id: { type: String },
    hookId: { type: String },
    postId: { type: String },
    channelId: { type: String },
    threadRootId: { type: String },
    url: { type: String },
    contentType: { type: String },
    body: { type: String },
    status: { type: String },
    attempts: { type: Number },
    tries: { type: Number },
    lastStatusCode: { type: Number },
    lastError: { type: String },
    lastLatencyMs: { type: Number },
    createAt: { type: Number },
    updateAt: { type: Number },
    nextAttemptAt: { type: Number },
    claimedBy: { type: String },
    claimUntil: { type: Number },
    eventType: { type: String },
    ordered: { type: Boolean },
  },
  SCHEMA_OPTIONS,
);

// The delivery log of a hook, newest first.
deliverySchema.index({ hookId: 1, createAt: -1 });
// Ordered deliveries: the oldest pending/failed one of a (hook, channel, URL) before a time (earliestWaitingBefore).
deliverySchema.index({ hookId: 1, channelId: 1, url: 1, status: 1, createAt: 1 });
// The scheduler: due pending/failed deliveries, earliest first (claimDue, nextDueAt).
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
// Every finish (`{ _id, claimedBy }`: written only while this instance still holds the claim). MongoDB answers
// it from the _id index anyway; the MongoDB-wire emulators this project runs on (mongo-java-server, infra.md)
// use an index only for a filter whose fields are exactly that index's, so without this one each finish read
// the whole collection: ~0.4 µs of the server's CPU per stored delivery, per finish (1 ms per delivery once
// ~2,500 are stored). Unique because _id is; on MongoDB it costs one more index entry per claim and finish.
deliverySchema.index({ _id: 1, claimedBy: 1 }, { unique: true });

export function deliveryModel(connection: Connection): Model<DeliveryDocument> {
  return modelOn(connection, 'OutgoingDelivery', deliverySchema, DELIVERIES_COLLECTION);
}

export const toDeliveryDocument = (delivery: Delivery): DeliveryDocument => toDocument(delivery);
export const fromDeliveryDocument = (doc: DeliveryDocument): Delivery => toPlain<Delivery>(doc);
