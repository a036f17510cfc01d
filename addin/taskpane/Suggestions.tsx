import { Badge, Caption1, makeStyles, Radio, RadioGroup, Spinner, Text, tokens } from '@fluentui/react-components';
import { useId } from 'react';
import { LIKELY_SCORE } from '../../shared/filing.js';
import { ErrorNotice } from '../ui/notices.js';
import type { FilingForm } from './use-filing-form.js';

const useStyles = makeStyles({
  // Room between suggestions: the keyboard focus ring around a radio button must not cover the reasons next to it.
  suggestion: { display: 'flex', flexDirection: 'column', minWidth: 0, marginBottom: tokens.spacingVerticalS },
  document: { color: tokens.colorNeutralForeground2 },
  // Two lines at most, so that File is in view in a 720 px pane; the full list is in the title and read out.
  reasons: {
    color: tokens.colorNeutralForeground3,
    paddingLeft: '32px',
    overflowWrap: 'anywhere',
    display: '-webkit-box',
    WebkitLineClamp: '2',
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
  },
});

/** Suggestions shown; the picker covers the rest. */
const TOP_SUGGESTIONS = 3;
/** The strongest reasons, shown; the rest in the title. */
const SHOWN_REASONS = 2;

/** The top suggestions as radio buttons, each with its reasons (read out with it by screen readers). */
export function Suggestions({ form }: { form: FilingForm }) {
  const styles = useStyles();
  const reasonsId = useId();
  const { suggestions, project } = form;
  const top = suggestions.status === 'done' ? suggestions.data.suggestions[0] : undefined;
  const unsure = top !== undefined && top.score < LIKELY_SCORE && !project;
  return (
    <section aria-labelledby="suggestions-title">
      <Text as="h2" size={300} weight="semibold" id="suggestions-title">
        Suggested projects
      </Text>
      {suggestions.status === 'loading' && <Spinner size="tiny" label="Finding where this e-mail belongs…" />}
      {suggestions.status === 'failed' && <ErrorNotice error={suggestions.error} onRetry={suggestions.reload} />}
      {suggestions.status === 'done' && suggestions.data.suggestions.length === 0 && (
        <Caption1>No suggestion for this e-mail. Pick a project below.</Caption1>
      )}
      {unsure && (
        <Caption1 block>
          Sitefile is not sure where this e-mail belongs. Pick one of these, or a project below.
        </Caption1>
      )}
      {suggestions.status === 'done' && suggestions.data.suggestions.length > 0 && (
        <RadioGroup
          aria-labelledby="suggestions-title"
          value={project ? `${project.orgId}/${project.projectId}` : ''}
          onChange={(_event, data) => {
            const chosen = suggestions.data.suggestions.find(
              (s) => `${s.organizationId}/${s.projectId}` === data.value,
            );
            if (chosen) form.chooseSuggestion(chosen);
          }}
        >
          {suggestions.data.suggestions.slice(0, TOP_SUGGESTIONS).map((s, i) => (
            <div key={`${s.organizationId}/${s.projectId}`} className={styles.suggestion}>
              <Radio
                value={`${s.organizationId}/${s.projectId}`}
                label={`${s.projectName} · ${Math.round(s.score * 100)}%`}
                input={{ 'aria-describedby': `${reasonsId}-${i}` }}
              />
              <Caption1
                id={`${reasonsId}-${i}`}
                className={styles.reasons}
                title={[s.documentNumber ? `On ${s.documentNumber}` : '', ...s.reasons].filter(Boolean).join(' · ')}
              >
                {s.documentNumber && (
                  <span className={styles.document}>
                    On {s.documentNumber}
                    {s.documentTitle ? ` · ${s.documentTitle}` : ''}.{' '}
                  </span>
                )}
                {s.reasons.slice(0, SHOWN_REASONS).join(' · ')}
              </Caption1>
            </div>
          ))}
        </RadioGroup>
      )}
    </section>
  );
}

/** Whether anything of this e-mail may reach an AI service, in one line. */
export function AiStatus({ aiOn, aiUsed }: { aiOn: boolean | undefined; aiUsed: boolean }) {
  if (aiOn === undefined) return null;
  return (
    <div>
      <Badge appearance="tint" color={aiOn ? 'brand' : 'informative'}>
        {aiOn ? 'AI suggestions on' : 'AI suggestions off'}
      </Badge>{' '}
      <Caption1>
        {aiOn
          ? aiUsed
            ? 'These suggestions were re-ranked by the AI service your organization enabled.'
            : 'Your organization allows AI re-ranking of suggestions.'
          : 'Nothing from this e-mail is sent to an AI service.'}
      </Caption1>
    </div>
  );
}
