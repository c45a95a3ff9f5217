/** The Mattermost API version Switchyard answers as (`X-Version-Id`, the client config's `Version`). */
export const SERVER_VERSION = '11.10.0';

/** The major version of SERVER_VERSION: config defaults that changed with a reference release follow it. */
export const SERVER_MAJOR_VERSION = Number(SERVER_VERSION.split('.')[0]);
