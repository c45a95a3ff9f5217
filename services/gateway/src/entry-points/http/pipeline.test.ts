import { test } from 'node:test';
import assert from 'node:assert/strict';
import express, { type RequestHandler } from 'express';
import { inject } from 'light-my-request';
import { RouteMatcher } from '../../domain/route-matcher';
import { ROUTE_TABLE, SESSION_OPTIONAL } from '../../domain/route-table';
import { GATEWAY_PIPELINE, mountPipeline, routerOnlyPaths, shortcutChain, type StageHandlers } from './pipeline';

const matcher = new RouteMatcher(ROUTE_TABLE, SESSION_OPTIONAL);

/** A concrete path for a route-table pattern (`*` → one segment, a trailing `**` → one more). */
const sample = (pattern: string): string => pattern.replace(/\*\*$/, 'x').replace(/\*/g, 'abc');

/** Handlers that record their stage's name and pass on; the last stage answers. */
function recording(log: string[]): StageHandlers {
  const entries = GATEWAY_PIPELINE.map((stage): [string, RequestHandler[]] => [
    stage.name,
    [
      (_req, res, next) => {
        log.push(stage.name);
        if (stage.name === 'toService') res.status(200).end();
        else next();
      },
    ],
  ]);
  return Object.fromEntries(entries) as unknown as StageHandlers;
}

test('when a stage says it never takes a service request, then none of its own paths is a service route', () => {
  for (const stage of GATEWAY_PIPELINE) {
    if (stage.serviceRequests !== 'never' || !('path' in stage)) continue;
    for (const path of stage.path) {
      assert.equal(matcher.match('GET', path), undefined, `${stage.name} ${path} is in the route table`);
    }
  }
});

test('when a stage runs for service requests under a path, then every route-table pattern is under that path', () => {
  for (const stage of GATEWAY_PIPELINE) {
    if (stage.serviceRequests !== 'run' || !('path' in stage)) continue;
    for (const rule of ROUTE_TABLE) {
      assert.ok(
        stage.path.some((prefix) => rule.pattern.startsWith(`${prefix}/`)),
        `${rule.pattern} is outside ${stage.name}'s mount (${stage.path.join(', ')}): the router would not run it there, the shortcut would`,
      );
    }
  }
});

test('when a service route goes through the router, then it runs exactly the shortcut chain, in the same order', async () => {
  const stages: string[] = [];
  const handlers = recording(stages);
  const app = express();
  mountPipeline(app, GATEWAY_PIPELINE, handlers);
  const shortcut = shortcutChain(GATEWAY_PIPELINE, handlers);
  const names = new Map<RequestHandler, string>(GATEWAY_PIPELINE.map((stage) => [handlers[stage.name]![0]!, stage.name]));
  const routerOnly = routerOnlyPaths(GATEWAY_PIPELINE);
  for (const rule of ROUTE_TABLE) {
    const path = sample(rule.pattern);
    if (routerOnly.some((prefix) => path.toLowerCase().startsWith(prefix))) continue;
    const method = rule.methods?.[0] ?? 'GET';
    stages.length = 0;
    const res = await inject(app, { method: method as 'GET', url: path });
    assert.equal(res.statusCode, 200, path);
    // The edge routes see every path on the router and pass service paths on (they serve only paths no service has).
    const ran = stages.filter((name) => name !== 'edgeRoutes');
    assert.deepEqual(ran, shortcut.map((h) => names.get(h)), `${method} ${path}`);
  }
});

test('when a path is under a stage left to the router, then the router runs that stage for it', async () => {
  const stages: string[] = [];
  const app = express();
  mountPipeline(app, GATEWAY_PIPELINE, recording(stages));
  for (const prefix of routerOnlyPaths(GATEWAY_PIPELINE)) {
    stages.length = 0;
    await inject(app, { method: 'PUT', url: `${prefix}/patch` });
    const stage = GATEWAY_PIPELINE.find((s) => s.serviceRequests === 'router' && 'path' in s && s.path.some((p) => p.toLowerCase() === prefix));
    assert.ok(stage && stages.includes(stage.name), prefix);
  }
});
