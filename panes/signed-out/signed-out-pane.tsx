// After sign-out, by the user, after inactivity or because the account was locked: what happened and a way back in.
import { messages } from '../../src/contract/messages.ts';
import '../panes.css';

export type SignedOutPaneProps = {
  reason: 'user' | 'inactivity' | 'locked';
  onSignIn: () => void;
};

const texts: Record<SignedOutPaneProps['reason'], string> = {
  user: messages.signedOutText,
  inactivity: messages.inactiveLoggedOut,
  locked: messages.accountLockedSignedOut,
};

export function SignedOutPane({ reason, onSignIn }: SignedOutPaneProps) {
  const warning = reason !== 'user';
  return (
    <div className="pane-message">
      <h1>{messages.signedOutTitle}</h1>
      <p className={warning ? 'pane-message-text pane-message-warning' : 'pane-message-text'} role={warning ? 'alert' : undefined}>
        {texts[reason]}
      </p>
      <button type="button" className="button button-primary" onClick={onSignIn}>
        {messages.signInAgain}
      </button>
    </div>
  );
}
