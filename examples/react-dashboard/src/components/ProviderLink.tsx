import type { Address } from 'viem'
import { providerHref } from '../route'

/** A provider's address, linking to its page (record, earnings, GPUs, current work). */
export function ProviderLink({ provider, testId }: { provider: Address; testId?: string | undefined }) {
  return (
    <a href={providerHref(provider)}>
      <code data-testid={testId}>{provider}</code>
    </a>
  )
}
