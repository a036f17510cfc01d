import { Spinner } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { ErrorNotice } from './notices.js';
import type { AsyncState } from './use-async.js';

/** What `useAsync` loaded: a small spinner saying `loading` while it loads, the error with Retry, then `children`. */
export function Loaded<T>({
  state,
  loading,
  children,
}: {
  state: AsyncState<T> & { reload: () => void };
  loading: string;
  children: (data: T) => ReactNode;
}) {
  if (state.status === 'loading') return <Spinner size="tiny" label={loading} />;
  if (state.status === 'failed') return <ErrorNotice error={state.error} onRetry={state.reload} />;
  return children(state.data);
}
