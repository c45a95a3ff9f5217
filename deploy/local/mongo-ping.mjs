// Dependency-free MongoDB wire-protocol ping, used by up.sh to wait for the Mongo server.
// Usage: node mongo-ping.mjs HOST PORT TIMEOUT_SECONDS
// Sends OP_MSG {ping: 1, $db: "admin"} until the reply has ok: 1, or the timeout passes (exit 1).
import net from 'node:net';

const [host = '127.0.0.1', port = '27017', timeoutS = '30'] = process.argv.slice(2);
const deadline = Date.now() + Number(timeoutS) * 1000;

function bsonPing() {
  const parts = [];
  const cstr = (s) => Buffer.from(s + '\0', 'utf8');
  const i32 = (n) => { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; };
  parts.push(Buffer.from([0x10]), cstr('ping'), i32(1));
  const db = cstr('admin');
  parts.push(Buffer.from([0x02]), cstr('$db'), i32(db.length), db);
  parts.push(Buffer.from([0x00]));
  const body = Buffer.concat(parts);
  return Buffer.concat([i32(body.length + 4), body]);
}

function opMsg(requestId) {
  const doc = bsonPing();
  const header = Buffer.alloc(16);
  const flags = Buffer.alloc(4); // flagBits = 0
  const len = 16 + 4 + 1 + doc.length;
  header.writeInt32LE(len, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12); // OP_MSG
  return Buffer.concat([header, flags, Buffer.from([0]), doc]);
}

// Returns the value of the top-level "ok" field of a BSON document (numbers only), or undefined.
function okField(doc) {
  let i = 4;
  while (i < doc.length - 1) {
    const type = doc[i++];
    const end = doc.indexOf(0, i);
    const name = doc.toString('utf8', i, end);
    i = end + 1;
    let value;
    switch (type) {
      case 0x01: value = doc.readDoubleLE(i); i += 8; break;
      case 0x02: case 0x0d: case 0x0e: i += 4 + doc.readInt32LE(i); break;
      case 0x03: case 0x04: case 0x0f: i += doc.readInt32LE(i); break;
      case 0x05: i += 5 + doc.readInt32LE(i); break;
      case 0x07: i += 12; break;
      case 0x08: value = doc[i]; i += 1; break;
      case 0x09: case 0x11: case 0x12: i += 8; break;
      case 0x0a: case 0x06: case 0x7f: case 0xff: break;
      case 0x10: value = doc.readInt32LE(i); i += 4; break;
      case 0x13: i += 16; break;
      default: return undefined;
    }
    if (name === 'ok') return value;
  }
  return undefined;
}

function pingOnce() {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port: Number(port) });
    let buf = Buffer.alloc(0);
    sock.setTimeout(3000, () => sock.destroy(new Error('timeout')));
    sock.on('connect', () => sock.write(opMsg(1)));
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
        sock.end();
        const opCode = buf.readInt32LE(12);
        if (opCode !== 2013) return reject(new Error(`unexpected opCode ${opCode}`));
        // header(16) + flagBits(4) + section kind(1) + document
        const ok = okField(buf.subarray(21));
        if (ok === 1) resolve(); else reject(new Error(`ping reply without ok: 1 (ok=${ok})`));
      }
    });
    sock.on('error', reject);
  });
}

let lastErr;
for (;;) {
  try {
    await pingOnce();
    console.log(`mongo ping ok on ${host}:${port}`);
    process.exit(0);
  } catch (e) {
    lastErr = e;
  }
  if (Date.now() > deadline) {
    console.error(`mongo ping failed on ${host}:${port}: ${lastErr && lastErr.message}`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 250));
}
