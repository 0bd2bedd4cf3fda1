// After sign-out, by the user or after inactivity: what happened and a way back in.
import { messages } from '../../src/contract/messages.ts';
import '../panes.css';

export type SignedOutPaneProps = {
  reason: 'user' | 'inactivity';
  onSignIn: () => void;
};

export function SignedOutPane({ reason, onSignIn }: SignedOutPaneProps) {
  return (
    <div className="pane-message">
      <h1>{messages.signedOutTitle}</h1>
      <p className={reason === 'inactivity' ? 'pane-message-text pane-message-warning' : 'pane-message-text'} role={reason === 'inactivity' ? 'alert' : undefined}>
        {reason === 'inactivity' ? messages.inactiveLoggedOut : messages.signedOutText}
      </p>
      <button type="button" className="button button-primary" onClick={onSignIn}>{messages.signInAgain}</button>
    </div>
  );
}
