/**
 * A native data path for comparison: nginx (with its njs module) in front of the lease's service, checking
 * the gateway's session token (an HMAC-SHA256 of `gfl1.<payload>`, as `sessionToken.ts` signs it) in njs
 * before it proxies. Not a gateway: no lease lookup, no metering, no acknowledgements; it tells what a hop
 * costs on this host when the bytes do not go through Node. Used by bench/leaseGateway.ts where Debian's
 * `nginx` and `libnginx-mod-http-js` are installed (`apt-get install nginx-light libnginx-mod-http-js`).
 */
import { execFile } from 'node:child_process'
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../../contracts/scripts/devnet.js'
import type { LeaseUpstream } from '../src/runtime/LeaseRuntime.js'

const run = promisify(execFile)
const nginx = '/usr/sbin/nginx'
const njsModule = '/usr/lib/nginx/modules/ngx_http_js_module.so'

/** Whether nginx and its njs module are installed. */
export async function nginxAvailable(): Promise<boolean> {
  try {
    await Promise.all([access(nginx), access(njsModule)])
    return true
  } catch {
    return false
  }
}

/** The session check, in njs: the bearer token's mac under `secret`, or 401/403. */
const checkScript = (secret: string) => `const crypto = require('crypto');
function access(r) {
  const auth = r.headersIn['Authorization'] || '';
  const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
  const dot = token.lastIndexOf('.');
  if (!token.startsWith('gfl1.') || dot < 0) return r.return(401);
  const mac = crypto.createHmac('sha256', ${JSON.stringify(secret)}).update(token.slice(0, dot)).digest('base64url');
  if (mac !== token.slice(dot + 1)) return r.return(403);
  r.internalRedirect('@service');
}
export default { access };
`

/** Starts nginx on 127.0.0.1 in front of `upstream`; its URL, and how to stop it. */
export async function startNginxRelay(upstream: LeaseUpstream, secret: string) {
  const prefix = await mkdtemp(path.join(tmpdir(), 'gridforge-nginx-'))
  await mkdir(path.join(prefix, 'logs'))
  const port = await freePort()
  await writeFile(path.join(prefix, 'check.js'), checkScript(secret))
  await writeFile(
    path.join(prefix, 'nginx.conf'),
    `load_module ${njsModule};
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  js_import check from ${prefix}/check.js;
  upstream service { server ${upstream.host}:${upstream.port}; keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / { js_content check.access; }
    location @service {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection '';
      proxy_set_header Authorization '';
    }
  }
}
`,
  )
  const conf = path.join(prefix, 'nginx.conf')
  await run(nginx, ['-p', prefix, '-c', conf])
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await run(nginx, ['-p', prefix, '-c', conf, '-s', 'stop']).catch(() => undefined)
      await rm(prefix, { recursive: true, force: true })
    },
  }
}
