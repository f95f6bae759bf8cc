/**
 * Version 11: the roles a subscribed client holds, as the operator recorded them
 * (`lev-api subscriptions add|update --roles`). Pushed events carry no caller's token, so a
 * webhook's fields are rendered, and its event types narrowed, for these roles, as a lookup by the
 * client would be. NULL: not recorded, and the webhook's events stay thin.
 */
export const subscriptionRoles = `
ALTER TABLE feed_subscription ADD COLUMN roles text[];
`;
