// Not found: for unknown paths, routes the spec redirects and routes the user may not open.
import { messages } from '../../src/contract/messages.ts';
import '../panes.css';

export function NotFoundPane() {
  return (
    <div className="pane-content pane-message">
      <p className="pane-message-code" aria-hidden="true">
        404
      </p>
      <h1>{messages.notFoundTitle}</h1>
      <p className="pane-message-text">{messages.notFoundText}</p>
      <ul className="pane-message-links">
        <li>
          <a className="button button-primary" href="/dashboard">
            Go to the dashboard
          </a>
        </li>
        <li>
          <a className="button" href="/tickets">
            Visit the support center
          </a>
        </li>
      </ul>
    </div>
  );
}
