/** The Mattermost API version Switchyard answers as (`X-Version-Id`, the client config's `Version`). */
export const SERVER_VERSION = '10.0.0';
