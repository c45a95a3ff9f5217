# shellcheck shell=bash
# Sourced by deploy/local/up.sh (its variables in scope): writes the servers' addresses (and the test-only
# secure Kafka and S3 settings) to $ENV_FILE, atomically.
cat >"$ENV_FILE.tmp" <<EOF
# written by deploy/local/up.sh at $(date -u +%Y-%m-%dT%H:%M:%SZ); servers stop with deploy/local/down.sh
KAFKA_BROKERS=$HOST:$KAFKA_PORT
MONGO_URL=mongodb://$HOST:$MONGO_PORT
REDIS_URL=redis://$HOST:$REDIS_PORT
MONGO_IMPL=$MONGO_IMPL
EOF
if [ "$SECURE_KAFKA" = 1 ]; then
  # Not KAFKA_SASL_*/KAFKA_SSL_*: the services read those, and the plaintext listener above is theirs.
  cat >>"$ENV_FILE.tmp" <<EOF
KAFKA_TEST_SASL_SSL_BROKERS=$HOST:$KAFKA_SASL_SSL_PORT
KAFKA_TEST_MTLS_BROKERS=$HOST:$KAFKA_MTLS_PORT
KAFKA_TEST_CA_FILE=$TLS/ca.pem
KAFKA_TEST_CLIENT_CERT_FILE=$TLS/client.pem
KAFKA_TEST_CLIENT_KEY_FILE=$TLS/client.key
KAFKA_TEST_SASL_USERNAME=$SASL_USER
KAFKA_TEST_SASL_PASSWORD=$SASL_PASSWORD
EOF
fi
# ---- files: the S3 server for the S3 file store's tests
cat >>"$ENV_FILE.tmp" <<EOF
S3_TEST_ENDPOINT=$HOST:$S3_PORT
S3_TEST_ACCESS_KEY=$S3_ACCESS_KEY
S3_TEST_SECRET_KEY=$S3_SECRET_KEY
EOF
# ---- end files
mv "$ENV_FILE.tmp" "$ENV_FILE"
