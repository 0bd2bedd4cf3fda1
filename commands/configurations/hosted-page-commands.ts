// The hosted payment page editor's own actions as registry commands: the preview at desktop or phone
// width, and removing the logo (the editor asks for confirmation first, spec: 'Removal asks for confirmation
// first'). Offered only while the focused pane is the editor and declares them; the editor's buttons call the same
// handlers the requests reach.
import { previewWidthLabels, previewWidths, type PreviewWidth } from '../../src/contract/configurations.ts';
import type { Command } from '../command.ts';

const declares = (capability: 'previewWidth' | 'removeLogo') => (ctx: Parameters<NonNullable<Command['when']>>[0]) =>
  ctx.focusedPane?.capabilities.includes(capability) === true && !ctx.overlayOpen;

function previewCommand(width: PreviewWidth): Command {
  return {
    id: `hostedPage.preview${width === 'desktop' ? 'Desktop' : 'Phone'}`,
    title: `Preview the payment page at ${previewWidthLabels[width].toLowerCase()} width`,
    section: 'Record',
    keywords: ['preview', 'width', width, width === 'phone' ? 'mobile' : 'wide', 'hosted page', 'payment page'],
    when: declares('previewWidth'),
    run: ({ state }) => state.paneRequest('previewWidth', previewWidths.indexOf(width)),
  };
}

export const previewDesktopCommand = previewCommand('desktop');
export const previewPhoneCommand = previewCommand('phone');

export const removeLogoCommand: Command = {
  id: 'hostedPage.removeLogo',
  title: 'Remove the logo',
  section: 'Record',
  keywords: ['logo', 'image', 'remove', 'delete', 'hosted page'],
  // Removing an image is a configuration edit on the server (server/api/images.ts).
  permissions: ['Mapi.Configurations.Update'],
  when: declares('removeLogo'),
  run: ({ state }) => state.paneRequest('removeLogo'),
};

export const hostedPageCommands: readonly Command[] = [previewDesktopCommand, previewPhoneCommand, removeLogoCommand];
