import { listen } from './listen';
import { requestPrototypes } from './own-prototypes';
import { serviceTransportContract, type TransportHarnessFactory } from './contracts/service-transport.contract';
import { streamedResponseContract } from './contracts/streamed-response.contract';
import { HttpTransport, InProcessTransport } from './transport';

const inProcess: TransportHarnessFactory = async (apps) => ({ transport: new InProcessTransport(apps), close: async () => undefined });

const overHttp: TransportHarnessFactory = async (apps) => {
  const servers = await Promise.all(Object.entries(apps).map(async ([service, app]) => [service, await listen(app, 0, '127.0.0.1', { prototypes: requestPrototypes(app) })] as const));
  const transport = new HttpTransport(Object.fromEntries(servers.map(([service, server]) => [service, server.url])));
  return {
    transport,
    close: async () => {
      await transport.close();
      await Promise.all(servers.map(([, server]) => server.close()));
    },
  };
};

serviceTransportContract('in-process', inProcess);
serviceTransportContract('http', overHttp);
streamedResponseContract('in-process', inProcess);
streamedResponseContract('http', overHttp);
