/**
 * Renders hooks inside `<WagmiProvider>` and `<QueryClientProvider>` as an
 * app would, with a fresh query client per render (no retries, so errors
 * surface at once).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { type RenderHookOptions, renderHook } from '@testing-library/react'
import type { Config } from '@wagmi/core'
import type { ReactNode } from 'react'
import { WagmiProvider } from 'wagmi'

export function renderWithConfig<result, props>(
  hook: (props: props) => result,
  {
    config,
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
    ...options
  }: { config: Config; queryClient?: QueryClient } & Omit<RenderHookOptions<props>, 'wrapper'>,
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <WagmiProvider config={config} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </WagmiProvider>
  )
  return { ...renderHook(hook, { ...options, wrapper }), queryClient }
}
