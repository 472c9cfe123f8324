import { useEffect, useState } from 'react';
import { currentSessionProblem, onSessionProblem, type SessionProblem } from '../api/transport';

/** The tab's sign-in problem, if the server refused a call (browser mode only). */
export function useSessionProblem(): SessionProblem | null {
  const [p, setP] = useState(currentSessionProblem);
  useEffect(() => onSessionProblem(setP), []);
  return p;
}

/**
 * Shown instead of the pages when the server refuses this tab (issue 21 item 9): empty grids and an
 * API error said nothing of why (a bookmark has no token; a restarted `coworkenv serve` has a new one).
 */
export function SessionExpired({ problem }: { problem: SessionProblem }) {
  return (
    <section className="page" data-testid="session-expired">
      <h1>Sign in again</h1>
      <p className="notice notice-error">
        {problem === 'missing'
          ? 'This tab has no sign-in token: it was opened from a bookmark or a copied address, which leave the ' +
            'token out.'
          : "The server no longer accepts this tab's sign-in token: `coworkenv serve` was restarted since (it makes " +
            'a new token at every start), or another server now answers on this port.'}
      </p>
      <p>To get a fresh link:</p>
      <ul>
        <li>
          open the address <code>coworkenv serve</code> printed in its terminal (it ends in <code>#token=…</code>);
        </li>
        <li>
          or restart it with <code>coworkenv serve --open</code>, which opens a signed-in tab for you.
        </li>
      </ul>
      <p className="hint">
        Nothing in the workspace was changed. Bookmarks work once signed in: the token stays with the tab, not the
        address.
      </p>
    </section>
  );
}
