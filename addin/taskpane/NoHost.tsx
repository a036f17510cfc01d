import { Link, makeStyles, Text, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '60ch' },
  steps: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
});

/** The add-in's documentation (docs/addin.md, copied into the build as plain text: install, sideload, data). */
export const addinDocsUrl = '/addin/help.txt';
const sideloadUrl = 'https://learn.microsoft.com/office/dev/add-ins/outlook/sideload-outlook-add-ins-for-testing';

/** Opened outside Outlook (a plain browser tab, or office.js could not load): what this is and how to get it. */
export function NoHost() {
  const styles = useStyles();
  return (
    <main className={styles.root} aria-labelledby="no-host-title">
      <Text as="h1" size={500} weight="semibold" id="no-host-title">
        Sitefile for Outlook
      </Text>
      <Text>
        This page is the Sitefile add-in for Outlook. It files e-mails and their attachments into Sitefile projects,
        RFIs and submittals, and it works only inside Outlook: opened on its own there is no e-mail to file.
      </Text>
      <Text as="h2" size={400} weight="semibold">
        To use it
      </Text>
      <ol className={styles.steps}>
        <li>
          <Text>Ask your Sitefile administrator for the add-in's manifest file (manifest.xml).</Text>
        </li>
        <li>
          <Text>
            In Outlook, open <strong>Get Add-ins</strong> → <strong>My add-ins</strong> →{' '}
            <strong>Add a custom add-in</strong> → <strong>Add from file…</strong> and choose the manifest (
            <Link href={sideloadUrl} target="_blank" rel="noreferrer">
              Microsoft's guide to sideloading
            </Link>
            ).
          </Text>
        </li>
        <li>
          <Text>
            Open an e-mail and press <strong>File to project</strong> on the ribbon.
          </Text>
        </li>
      </ol>
      <Text>
        More in the{' '}
        <Link href={addinDocsUrl} target="_blank" rel="noreferrer">
          Sitefile add-in documentation
        </Link>
        . If you opened this inside Outlook and still see this page, Outlook could not load Microsoft's Office library:
        check the connection and open the add-in again.
      </Text>
    </main>
  );
}
