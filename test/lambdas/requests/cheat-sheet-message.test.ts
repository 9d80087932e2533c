import { emailCopy } from '../../../core/documents/cheat-sheet-email';
import { cheatSheetMessage } from '../../../lambdas/requests/cheat-sheet-message';

const sender = {
  senderEmail: 'author@example.com',
  attachmentFileName: 'cheat-sheet.pdf',
  configurationSetName: 'set',
};
const pdf = new Uint8Array([37, 80, 68, 70]);

describe("the cheat sheet's e-mail to one reader", () => {
  test('goes from the sender to the reader, tagged with the request, the PDF attached', () => {
    const message = cheatSheetMessage(sender, { email: 'reader@example.com', name: 'Ada', requestId: 'r-1' }, pdf);

    expect(message).toMatchObject({
      from: 'author@example.com',
      to: 'reader@example.com',
      requestId: 'r-1',
      configurationSetName: 'set',
      attachment: { fileName: 'cheat-sheet.pdf', contentType: 'application/pdf', content: pdf },
    });
    expect(message.text).toContain('Hello Ada,');
  });

  test('promises no other e-mail to a reader who did not join the list', () => {
    const message = cheatSheetMessage(sender, { email: 'reader@example.com', name: 'Ada', requestId: 'r-1' }, pdf);

    expect(message.text).toContain(emailCopy.why);
  });

  test("says the list's e-mails will come to a reader who joined it", () => {
    const message = cheatSheetMessage(
      sender,
      { email: 'reader@example.com', name: 'Ada', requestId: 'r-1', joinedListAt: 'Kit' },
      pdf,
    );

    expect(message.text).toContain(emailCopy.whyJoined('Kit'));
  });
});
