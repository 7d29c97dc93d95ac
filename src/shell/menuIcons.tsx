import {
  Apps20Regular, ArrowUpload20Regular, Beaker20Regular, Bug20Regular, Building20Regular, Cloud20Regular, Database20Regular,
  DataBarVertical20Regular, Document20Regular, DocumentText20Regular, Eye20Regular, Folder20Regular, History20Regular,
  Home20Regular, Key20Regular, Link20Regular, People20Regular, Person20Regular, Ribbon20Regular, Scan20Regular, Search20Regular,
  Settings20Regular, Shield20Regular, SlideMultiple20Regular, Star20Regular, Stethoscope20Regular, Tag20Regular,
  TextBulletListLtr20Regular, Wrench20Regular, type FluentIcon,
} from '@fluentui/react-icons';

/** Menu icons are names stored with the menu on the server; unknown names fall back to a neutral icon. */
const icons: Record<string, FluentIcon> = {
  home: Home20Regular, list: TextBulletListLtr20Regular, stethoscope: Stethoscope20Regular, people: People20Regular,
  search: Search20Regular, document: Document20Regular, star: Star20Regular, slides: SlideMultiple20Regular,
  database: Database20Regular, eye: Eye20Regular, ribbon: Ribbon20Regular, shield: Shield20Regular, upload: ArrowUpload20Regular,
  cloud: Cloud20Regular, scanner: Scan20Regular, history: History20Regular, tag: Tag20Regular, chart: DataBarVertical20Regular,
  log: DocumentText20Regular, bug: Bug20Regular, settings: Settings20Regular, beaker: Beaker20Regular, building: Building20Regular,
  link: Link20Regular, key: Key20Regular, person: Person20Regular, system: Wrench20Regular, folder: Folder20Regular,
};

export function MenuIcon({ name }: { name?: string | null }) {
  const Icon = (name && icons[name]) || Apps20Regular;
  return <Icon />;
}
