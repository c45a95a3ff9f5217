/** The authenticated caller, as the gateway signed it. */
export interface Actor {
  readonly userId: string;
  readonly roles: string;
  readonly isBot: boolean;
  readonly sessionId?: string;
}
