/** The local stack's four ports: their variables, defaults (README, 'Quick start') and printed lines. */

export interface LocalStackPorts {
  readonly site: number;
  readonly mail: number;
  readonly dynamodb: number;
  readonly s3: number;
}

export type Service = keyof LocalStackPorts;

export const portVariables: Readonly<Record<Service, string>> = {
  site: 'PORT',
  mail: 'MAIL_PORT',
  dynamodb: 'DYNAMODB_PORT',
  s3: 'S3_PORT',
};

export const defaultPorts: LocalStackPorts = { site: 3000, mail: 8005, dynamodb: 8000, s3: 4569 };

export const serviceNames: Readonly<Record<Service, string>> = {
  site: 'site and API server',
  mail: 'SES emulator (aws-ses-v2-local)',
  dynamodb: 'DynamoDB emulator (dynalite)',
  s3: 'S3 emulator (s3rver)',
};

export class InvalidPortError extends Error {
  override readonly name = 'InvalidPortError';
  constructor(
    readonly variable: string,
    value: string,
  ) {
    super(`${variable}=${value} is not a port: use a number from 0 to 65535 (0 picks a free port).`);
  }
}

/** Ports from PORT, MAIL_PORT, DYNAMODB_PORT and S3_PORT; unset or empty means the default. */
export function readPorts(env: Readonly<Record<string, string | undefined>> = process.env): LocalStackPorts {
  const read = (service: Service): number => {
    const variable = portVariables[service];
    const raw = env[variable]?.trim();
    if (!raw) return defaultPorts[service];
    const port = Number(raw);
    if (!/^\d+$/.test(raw) || port > 65_535) throw new InvalidPortError(variable, raw);
    return port;
  };
  return { site: read('site'), mail: read('mail'), dynamodb: read('dynamodb'), s3: read('s3') };
}

/** The contract's four lines, with the real ports, the URL last on each line. */
export function endpointLines(ports: LocalStackPorts): string[] {
  return [
    `Site:      http://localhost:${ports.site}/`,
    `Mail:      http://localhost:${ports.mail}/`,
    `DynamoDB:  http://localhost:${ports.dynamodb}`,
    `S3:        http://localhost:${ports.s3}`,
  ];
}
