import {
  Button,
  Caption1,
  Checkbox,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import { MAX_MESSAGE_BYTES } from '../../shared/filing.js';
import type { OpenMessage } from '../office/mailbox.js';
import { fileableAttachments, largestToLeaveOut, type sendingPlan } from './filing.js';

const useStyles = makeStyles({
  root: { border: 'none', margin: 0, padding: 0, minWidth: 0, display: 'flex', flexDirection: 'column' },
  header: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' },
  // One per line; a long name is cut with an ellipsis instead of widening the pane (the full name is its title),
  // and the size after it stays in view.
  item: { minWidth: 0, maxWidth: '100%' },
  label: { display: 'flex', minWidth: 0, gap: tokens.spacingHorizontalXS },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  size: { flexShrink: 0, whiteSpace: 'nowrap' },
  total: { color: tokens.colorNeutralForeground3 },
});

/** A size for people: "38 B", "12 KB", "25 MB" (a no-break space keeps the number with its unit). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}\u00a0B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)}\u00a0KB`;
  // 25 MB, not 25.0 MB; 9.5 MB keeps its tenth.
  return `${Number((bytes / 1024 / 1024).toFixed(1))}\u00a0MB`;
}

/**
 * The attachments to include, with select all/none, the size that will be sent (the encoded size when the whole
 * message goes), and before File a warning above what Sitefile accepts with the offer to leave out the largest.
 */
export function Attachments(props: {
  message: OpenMessage;
  chosen: ReadonlySet<string>;
  plan: ReturnType<typeof sendingPlan>;
  onChange: (chosen: ReadonlySet<string>) => void;
}) {
  const styles = useStyles();
  const { chosen, plan } = props;
  const attachments = fileableAttachments(props.message);
  const all = chosen.size === attachments.length;
  const tooLarge = plan.fits ? [] : largestToLeaveOut(props.message, chosen);
  const tooLargeBytes = attachments.filter((a) => tooLarge.includes(a.id)).reduce((sum, a) => sum + a.size, 0);
  return (
    <fieldset className={styles.root}>
      <legend>
        <Text weight="semibold">Attachments to include</Text>
      </legend>
      <div className={styles.header}>
        <Caption1 className={styles.total}>
          {chosen.size} of {attachments.length} chosen · {formatSize(plan.bytes)}
        </Caption1>
        <Button
          appearance="transparent"
          size="small"
          onClick={() => props.onChange(new Set(all ? [] : attachments.map((a) => a.id)))}
        >
          {all ? 'Select none' : 'Select all'}
        </Button>
      </div>
      {plan.path === 'raw' && (
        <Caption1 className={styles.total}>Sent as the whole message, attachments encoded.</Caption1>
      )}
      {attachments.map((a) => (
        <Checkbox
          key={a.id}
          className={styles.item}
          label={{
            className: styles.label,
            title: a.name,
            children: (
              <>
                <span className={styles.name}>{a.name}</span>{' '}
                <span className={styles.size}>({formatSize(a.size)})</span>
              </>
            ),
          }}
          checked={chosen.has(a.id)}
          onChange={(_event, data) => {
            const next = new Set(chosen);
            if (data.checked) next.add(a.id);
            else next.delete(a.id);
            props.onChange(next);
          }}
        />
      ))}
      {!plan.fits && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            Together these are over the {formatSize(MAX_MESSAGE_BYTES)} Sitefile accepts for one e-mail. Untick some to
            file the rest.
          </MessageBarBody>
          <MessageBarActions>
            <Button
              size="small"
              onClick={() => props.onChange(new Set([...chosen].filter((id) => !tooLarge.includes(id))))}
            >
              {`Leave out the ${tooLarge.length === 1 ? 'largest' : `${tooLarge.length} largest`} (${formatSize(tooLargeBytes)})`}
            </Button>
          </MessageBarActions>
        </MessageBar>
      )}
    </fieldset>
  );
}
