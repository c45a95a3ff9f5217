import { listen } from './listen';
import { requestPrototypes } from './own-prototypes';
import { serviceTransportContract } from './contracts/service-transport.contract';
import { HttpTransport, InProcessTransport } from './transport';

serviceTransportContract('in-process', async (apps) => ({ transport: new InProcessTransport(apps), close: async () => undefined }));

serviceTransportContract('http', async (apps) => {
  const servers = await Promise.all(Object.entries(apps).map(async ([service, app]) => [service, await listen(app, 0, '127.0.0.1', { prototypes: requestPrototypes(app) })] as const));
  const transport = new HttpTransport(Object.fromEntries(servers.map(([service, server]) => [service, server.url])));
  return {
    transport,
    close: async () => {
      await transport.close();
      await Promise.all(servers.map(([, server]) => server.close()));
    },
  };
});
