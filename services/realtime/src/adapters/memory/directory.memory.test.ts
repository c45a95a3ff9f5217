import { membershipSourceContract } from '../contracts/membership-source.contract';
import { MemoryDirectory } from './directory.memory';

membershipSourceContract('MemoryDirectory', async (seed) => {
  const directory = new MemoryDirectory();
  for (const [channelId, members] of Object.entries(seed.channels)) {
    directory.addChannel(channelId);
    for (const userId of members) directory.addChannelMember(channelId, userId);
  }
  for (const m of seed.teamMembers) if (m.deleteAt === 0) directory.addTeamMember(m.teamId, m.userId);
  return directory;
});
