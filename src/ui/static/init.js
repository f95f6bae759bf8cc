// Progressive enhancement only: every page works without this.
import { initAll } from '/ui/govuk/govuk-frontend.min.js';

initAll();

// The idle-timeout warning: before the session ends, say so and offer to stay signed in.
const timeout = document.getElementById('lev-timeout');
if (timeout) {
  const idle = Number(timeout.dataset.idleSeconds) * 1000;
  const warn = Number(timeout.dataset.warnSeconds) * 1000;
  let warnTimer;
  let endTimer;
  const banner = document.createElement('div');
  banner.className = 'govuk-notification-banner lev-timeout-warning';
  banner.setAttribute('role', 'alert');
  banner.hidden = true;
  banner.innerHTML =
    '<div class="govuk-notification-banner__header"><h2 class="govuk-notification-banner__title">Important</h2></div>' +
    '<div class="govuk-notification-banner__content"><p class="govuk-notification-banner__heading">' +
    'You will be signed out soon because you have not done anything for a while.</p>' +
    '<button type="button" class="govuk-button govuk-!-margin-bottom-0">Stay signed in</button></div>';
  document.querySelector('main')?.prepend(banner);
  const arm = () => {
    clearTimeout(warnTimer);
    clearTimeout(endTimer);
    banner.hidden = true;
    warnTimer = setTimeout(() => {
      banner.hidden = false;
      banner.querySelector('button')?.focus();
    }, Math.max(0, idle - warn));
    endTimer = setTimeout(() => window.location.assign('/ui/sign-in?timedOut=1'), idle);
  };
  banner.querySelector('button')?.addEventListener('click', async () => {
    // Any request to the pages renews the session.
    await fetch('/ui/keep-alive', { method: 'GET', credentials: 'same-origin' });
    arm();
  });
  arm();
}
