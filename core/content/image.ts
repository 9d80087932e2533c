/** An image with its intrinsic size, so the page reserves its space and nothing shifts. */
export interface Image {
  readonly src: string;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
}
