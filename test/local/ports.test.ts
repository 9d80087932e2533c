import { defaultPorts, endpointLines, InvalidPortError, readPorts } from '../../local/ports';

describe('readPorts', () => {
  test("uses the contract's defaults when no variable is set", () => {
    expect(readPorts({})).toEqual({ site: 3000, mail: 8005, dynamodb: 8000, s3: 4569 });
    expect(defaultPorts).toEqual({ site: 3000, mail: 8005, dynamodb: 8000, s3: 4569 });
  });

  test('reads PORT, MAIL_PORT, DYNAMODB_PORT and S3_PORT, 0 included', () => {
    expect(readPorts({ PORT: '0', MAIL_PORT: '1025', DYNAMODB_PORT: ' 8001 ', S3_PORT: '' })).toEqual({
      site: 0,
      mail: 1025,
      dynamodb: 8001,
      s3: 4569,
    });
  });

  test.each([
    ['PORT', 'abc'],
    ['MAIL_PORT', '-1'],
    ['DYNAMODB_PORT', '70000'],
    ['S3_PORT', '80.5'],
  ])('refuses %s=%s, naming the variable', (variable, value) => {
    expect(() => readPorts({ [variable]: value })).toThrow(new InvalidPortError(variable, value));
    expect(() => readPorts({ [variable]: value })).toThrow(new RegExp(`^${variable}=`));
  });
});

describe('endpointLines', () => {
  test("prints the contract's four lines, URL last", () => {
    expect(endpointLines({ site: 3000, mail: 8005, dynamodb: 8000, s3: 4569 })).toEqual([
      'Site:      http://localhost:3000/',
      'Mail:      http://localhost:8005/',
      'DynamoDB:  http://localhost:8000',
      'S3:        http://localhost:4569',
    ]);
  });
});
