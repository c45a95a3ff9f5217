import { BOT_ICON_UPLOAD, PROFILE_IMAGE_UPLOAD } from '@switchyard/contracts';
import { badRequest, forbidden, notFound, notImplemented, payloadTooLarge, unauthorized, type AppError } from '@switchyard/errors';

export { DuplicateKeyError, isDuplicateKeyError } from '@switchyard/errors';

/** The reference's error ids for this service, in one place. */
export const Errors = {
  userNotFound: (): AppError => notFound('app.user.missing_account.const', 'Unable to find the user.'),
  /** GetUserByUsername's not-found error in the reference (its own id, not missing_account). */
  usernameNotFound: (): AppError =>
    notFound(
      'app.user.get_by_username.app_error',
      'Unable to find an existing account matching your username for this team. This account may require an invitation from the team owner to join.',
    ),
  /** The reference's UpdateUserRoles sets GetUser's not-found error to 400. */
  rolesUserNotFound: (): AppError => badRequest('app.user.missing_account.const', 'Unable to find the user.'),
  usernameExists: (): AppError => badRequest('app.user.save.username_exists.app_error', 'An account with that username already exists.'),
  emailExists: (): AppError => badRequest('app.user.save.email_exists.app_error', 'An account with that email already exists.'),
  signupDisabled: (): AppError => notImplemented('api.user.create_user.signup_email_disabled.app_error', 'User sign-up with email is disabled.'),
  noOpenServer: (): AppError => forbidden('api.user.create_user.no_open_server', 'This server does not allow open signups.  Please speak with your Administrator to receive an invitation.'),
  deactivationDisabled: (): AppError =>
    unauthorized('api.user.update_active.not_enable.app_error', 'You cannot deactivate yourself because this feature is not enabled. Please contact your System Administrator.'),
  updateActivePermissions: (): AppError =>
    forbidden('api.user.update_active.permissions.app_error', 'You do not have the appropriate permissions.'),
  permanentDeleteDisabled: (): AppError =>
    unauthorized('api.user.delete_user.not_enabled.app_error', 'Permanent user deletion feature is not enabled. Please contact your System Administrator.'),
  roleNotFound: (role: string): AppError =>
    badRequest('app.role.check_roles_exist.role_not_found', 'The provided role does not exist', { detailedError: `role=${role}` }),
  alreadyBot: (): AppError => badRequest('api.user.convert_user_to_bot.already_bot.app_error', 'The user is already a bot.'),
  botNotFound: (): AppError => notFound('store.sql_bot.get.missing.app_error', 'Bot does not exist.'),
  botCreateDisabled: (): AppError => forbidden('api.bot.create_disabled', 'Bot creation has been disabled.'),
  systemOwnedBot: (): AppError => badRequest('api.bot.system_owned.app_error', 'This bot is owned by the system and cannot be changed this way.'),
  /** As the reference's `GetUserAccessToken` (app/user.go): its not-found answer reuses the get_by_user id. */
  tokenNotFound: (): AppError => notFound('app.user_access_token.get_by_user.app_error', 'Unable to get user access tokens by user.'),
  tokensDisabled: (): AppError =>
    notImplemented('app.user_access_token.disabled', 'Personal access tokens are disabled on this server. Please contact your system administrator for details.'),
  sessionNotFound: (): AppError => notFound('app.session.get.app_error', 'Unable to find the session.'),
  teamNotFound: (): AppError => notFound('app.team.get.find.app_error', 'Unable to find the existing team.'),
  teamByNameNotFound: (): AppError => notFound('app.team.get_by_name.missing.app_error', 'Unable to find the existing team.'),
  teamMemberNotFound: (): AppError => notFound('app.team.get_member.missing.app_error', 'No team member found for that user ID and team ID.'),
  teamNameExists: (): AppError => badRequest('app.team.save.existing.app_error', 'A team with that name already exists.'),
  teamCreationDenied: (): AppError => forbidden('api.team.is_team_creation_allowed.disabled.app_error', 'Team creation has been disabled. Please ask your System Administrator for details.'),
  teamFull: (): AppError => badRequest('app.team.join_user_to_team.max_accounts.app_error', 'This team has reached the maximum number of allowed accounts. Contact your System Administrator to set a higher limit.'),
  deactivatedTeamMember: (): AppError => badRequest('app.team.join_user_to_team.deactivated_user.app_error', 'A deactivated user cannot join a team.'),
  clearSiteUrl: (): AppError => badRequest('api.config.update_config.clear_siteurl.app_error', 'Site URL cannot be cleared.'),
  // Pictures (bot icons, profile images).
  botIconTooLarge: (): AppError => payloadTooLarge(BOT_ICON_UPLOAD.tooLarge.id, BOT_ICON_UPLOAD.tooLarge.message),
  botIconParse: (detail = ''): AppError => badRequest('api.bot.set_bot_icon_image.parse.app_error', 'Unable to parse multipart form.', { detailedError: detail }),
  botIconNoFile: (): AppError => badRequest('api.bot.set_bot_icon_image.no_file.app_error', 'No file under \'image\' in request.'),
  botIconMissing: (): AppError => notFound('api.bot.get_bot_icon_image.read.app_error', 'Unable to read icon image file.'),
  profileImageTooLarge: (status: 413 | 400 = 413, detail = ''): AppError =>
    (status === 413 ? payloadTooLarge : badRequest)(PROFILE_IMAGE_UPLOAD.tooLarge.id, PROFILE_IMAGE_UPLOAD.tooLarge.message, { detailedError: detail }),
  profileImageParse: (detail = ''): AppError => badRequest('api.user.upload_profile_user.parse.app_error', 'Could not parse multipart form.', { detailedError: detail }),
  profileImageNoFile: (): AppError => badRequest('api.user.upload_profile_user.no_file.app_error', 'No file under \'image\' in request.'),
  profileImageFormat: (detail = ''): AppError =>
    badRequest('api.user.upload_profile_user.decode_config.app_error', 'Unable to save profile image. File does not appear to be a valid image.', { detailedError: detail }),
  profileImageDecode: (detail = ''): AppError => badRequest('api.user.upload_profile_user.decode.app_error', 'Unable to decode profile image.', { detailedError: detail }),
};
