export { createMongoRepositories, type MongoRepositoriesOptions } from './create-mongo-repositories';
export { MongoUserRepository } from './user.repository.mongo';
export { MongoSessionRepository } from './session.repository.mongo';
export { MongoAccessTokenRepository } from './access-token.repository.mongo';
export { MongoBotRepository } from './bot.repository.mongo';
export { MongoTeamRepository } from './team.repository.mongo';
export { MongoTeamMemberRepository } from './team-member.repository.mongo';
export { MongoConfigRepository } from './config.repository.mongo';
export { USERS_BOTS_COLLECTIONS } from './collections';
