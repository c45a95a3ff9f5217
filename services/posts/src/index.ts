export { createPostsApp, SERVICE_NAME, type PostsApp, type PostsDeps } from './app';
export { loadPostsConfig, postsEnvSchema, type PostsConfig } from './config';
