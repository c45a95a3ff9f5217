import { Router } from 'express';
import { sendJson, sendStatusOk } from '@switchyard/http-kit';
import { validate } from '@switchyard/validation';
import { addChannelMember } from '../../domain/channels/add-member.usecase';
import { archiveChannel } from '../../domain/channels/archive-channel.usecase';
import { createChannel } from '../../domain/channels/create-channel.usecase';
import { createDirectChannel } from '../../domain/channels/direct-channel.usecase';
import { getChannel, getChannelByName } from '../../domain/channels/get-channel.usecase';
import { getChannelMember, listChannelMembers } from '../../domain/channels/list-members.usecase';
import { listTeamChannels } from '../../domain/channels/list-team-channels.usecase';
import { listUserChannels } from '../../domain/channels/list-user-channels.usecase';
import { patchChannel, type ChannelPatch } from '../../domain/channels/patch-channel.usecase';
import { removeChannelMember } from '../../domain/channels/remove-member.usecase';
import { updateChannelMemberNotifyProps } from '../../domain/channels/update-notify-props.usecase';
import { commonErrors } from '@switchyard/errors';
import { Errors } from '../../domain/errors';
import { actorOf, idParam, paging, queryBool, userIdParam, type HttpContext } from './http-context';
import { addMemberBody, createChannelBody, directChannelBody, patchChannelBody } from './channels.schemas';
import { presentChannel, presentMember } from './presenters';

/** Channels and memberships (mattermost-wire.md §6). */
export function channelsRoutes(ctx: HttpContext): Router {
  const { deps } = ctx;
  const router = Router();

  router.post('/api/v4/channels', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const body = validate(createChannelBody, req.body);
    sendJson(res, 201, presentChannel(await createChannel(deps, actor, body)));
  });

  router.post('/api/v4/channels/direct', ...ctx.withBody, async (req, res) => {
    const actor = actorOf(req);
    const ids = validate(directChannelBody, req.body, { onError: () => commonErrors.invalidBodyParam('user_ids') }) as [string, string];
    sendJson(res, 201, presentChannel(await createDirectChannel(deps, actor, ids)));
  });

  router.get('/api/v4/channels/:channel_id', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    sendJson(res, 200, presentChannel(await getChannel(deps, actorOf(req), channelId)));
  });

  router.put('/api/v4/channels/:channel_id/patch', ...ctx.withBody, async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const raw = validate(patchChannelBody, req.body, { onError: () => commonErrors.invalidBodyParam('channel') }) as Record<string, unknown>;
    const patch: ChannelPatch = {
      ...(typeof raw.display_name === 'string' ? { display_name: raw.display_name } : {}),
      ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
      ...(typeof raw.header === 'string' ? { header: raw.header } : {}),
      ...(typeof raw.purpose === 'string' ? { purpose: raw.purpose } : {}),
    };
    sendJson(res, 200, presentChannel(await patchChannel(deps, actorOf(req), channelId, patch)));
  });

  router.delete('/api/v4/channels/:channel_id', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    await archiveChannel(deps, actorOf(req), channelId);
    sendStatusOk(res);
  });

  router.get('/api/v4/teams/:team_id/channels', async (req, res) => {
    const teamId = idParam(req, 'team_id');
    sendJson(res, 200, (await listTeamChannels(deps, actorOf(req), teamId, paging(req))).map(presentChannel));
  });

  router.get('/api/v4/teams/:team_id/channels/name/:channel_name', async (req, res) => {
    const teamId = idParam(req, 'team_id');
    const name = String(req.params.channel_name ?? '').toLowerCase();
    sendJson(res, 200, presentChannel(await getChannelByName(deps, actorOf(req), teamId, name, queryBool(req, 'include_deleted'))));
  });

  router.get('/api/v4/teams/name/:team_name/channels/name/:channel_name', async (req, res) => {
    const actor = actorOf(req);
    const teamName = String(req.params.team_name ?? '').toLowerCase();
    if (!/^[a-z0-9_-]+$/.test(teamName)) throw commonErrors.invalidUrlParam('team_name');
    const teamId = await deps.users.teamIdByName(teamName);
    if (teamId === undefined) throw Errors.teamByNameNotFound();
    const name = String(req.params.channel_name ?? '').toLowerCase();
    sendJson(res, 200, presentChannel(await getChannelByName(deps, actor, teamId, name, queryBool(req, 'include_deleted'))));
  });

  router.get('/api/v4/channels/:channel_id/members', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    sendJson(res, 200, (await listChannelMembers(deps, actorOf(req), channelId, paging(req))).map(presentMember));
  });

  router.get('/api/v4/channels/:channel_id/members/:user_id', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const userId = userIdParam(req);
    sendJson(res, 200, presentMember(await getChannelMember(deps, actorOf(req), channelId, userId)));
  });

  router.post('/api/v4/channels/:channel_id/members', ...ctx.withBody, async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const actor = actorOf(req);
    const body = validate(addMemberBody, req.body) as { user_id?: string; user_ids?: string[] };
    if (body.user_ids !== undefined) {
      const members = [];
      for (const userId of body.user_ids) members.push(presentMember(await addChannelMember(deps, actor, channelId, userId)));
      sendJson(res, 201, members);
      return;
    }
    sendJson(res, 201, presentMember(await addChannelMember(deps, actor, channelId, body.user_id ?? '')));
  });

  router.put('/api/v4/channels/:channel_id/members/:user_id/notify_props', ...ctx.withBody, async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const userId = userIdParam(req);
    await updateChannelMemberNotifyProps(deps, actorOf(req), channelId, userId, req.body);
    sendStatusOk(res);
  });

  router.delete('/api/v4/channels/:channel_id/members/:user_id', async (req, res) => {
    const channelId = idParam(req, 'channel_id');
    const userId = userIdParam(req);
    await removeChannelMember(deps, actorOf(req), channelId, userId);
    sendStatusOk(res);
  });

  router.get('/api/v4/users/:user_id/teams/:team_id/channels', async (req, res) => {
    const userId = userIdParam(req);
    const teamId = idParam(req, 'team_id');
    const found = await listUserChannels(deps, actorOf(req), userId, teamId, queryBool(req, 'include_deleted'));
    sendJson(res, 200, found.map((f) => presentChannel(f.channel)));
  });

  router.get('/api/v4/users/:user_id/teams/:team_id/channels/members', async (req, res) => {
    const userId = userIdParam(req);
    const teamId = idParam(req, 'team_id');
    const found = await listUserChannels(deps, actorOf(req), userId, teamId, false);
    sendJson(res, 200, found.map((f) => presentMember(f.member)));
  });

  router.get('/api/v4/users/:user_id/channels', async (req, res) => {
    const userId = userIdParam(req);
    const found = await listUserChannels(deps, actorOf(req), userId, undefined, queryBool(req, 'include_deleted'));
    sendJson(res, 200, found.map((f) => presentChannel(f.channel)));
  });

  return router;
}
