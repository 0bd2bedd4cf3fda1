// The demo sanctions and PEP list: FICTIONAL people and companies (any likeness to a real person or company is
// accidental), shaped like consolidated lists: names with aliases in other scripts and spellings, dates of birth,
// a country and the programme or public function behind each entry. The seed loads it (seed-risk.ts).
import type { ListEntry } from './screening.ts';

export type ScreeningListRow = ListEntry & { list: 'sanctions' | 'pep'; country: string; reason: string };

const person = (id: string, list: 'sanctions' | 'pep', name: string, aliases: string[], dateOfBirth: string | null, country: string, reason: string): ScreeningListRow =>
  ({ id, list, kind: 'person', name, aliases, dateOfBirth, country, reason });
const company = (id: string, name: string, aliases: string[], country: string, reason: string): ScreeningListRow =>
  ({ id, list: 'sanctions', kind: 'company', name, aliases, dateOfBirth: null, country, reason });

export const screeningList: readonly ScreeningListRow[] = [
  person('SL0001', 'sanctions', 'Vadim Arkadyevich Zolotaryov', ['Вадим Аркадьевич Золотарёв', 'Vadim Zolotarev', 'Wadim Solotarjow'], '1968-03-14', 'RU', 'Fictional Eastern Programme: asset freeze'),
  person('SL0002', 'sanctions', 'Yelena Borisovna Kostrikina', ['Елена Борисовна Кострикина', 'Elena Kostrikina'], '1974-11-02', 'RU', 'Fictional Eastern Programme: asset freeze'),
  person('SL0003', 'sanctions', 'Dmitri Olegovich Varshavsky', ['Дмитрий Олегович Варшавский', 'Dmitry Varshavskiy', 'Dmitrij Warschawski'], '1961-07-29', 'RU', 'Fictional Eastern Programme: travel ban'),
  person('SL0004', 'sanctions', 'Ruslan Timurovich Bekmurzaev', ['Руслан Тимурович Бекмурзаев', 'Ruslan Bekmurzayev'], '1979-01-18', 'RU', 'Fictional Eastern Programme: asset freeze'),
  person('SL0005', 'sanctions', 'Anatoliy Grigoryevich Shevchuk-Lavrov', ['Анатолий Шевчук-Лавров', 'Anatoly Shevchuk Lavrov'], '1957-05-06', 'BY', 'Fictional Lakeland Programme: asset freeze'),
  person('SL0006', 'sanctions', 'Oksana Viktorivna Hrytsenko', ['Оксана Вікторівна Гриценко', 'Oksana Gritsenko'], '1983-09-21', 'UA', 'Fictional Eastern Programme: misappropriation of state funds'),
  person('SL0007', 'sanctions', 'Abdulrahman Saeed Al-Qarni', ['Abd al-Rahman Said al Qarni', 'Abdul Rahman Al Karni'], '1972-02-11', 'YE', 'Fictional Gulf Programme: terrorist financing'),
  person('SL0008', 'sanctions', 'Hamid Reza Nourbakhshian', ['Hamidreza Nurbakhshian', 'H. R. Nourbakhshian'], '1965-12-30', 'IR', 'Fictional Plateau Programme: proliferation financing'),
  person('SL0009', 'sanctions', 'Faisal Mahmoud Haddadin', ['Faysal Mahmud Haddadeen'], '1970-06-04', 'SY', 'Fictional Levant Programme: asset freeze'),
  person('SL0010', 'sanctions', 'Mustafa Kemal Dervişoğlu', ['Mustafa Kemal Dervisoglu', 'Moustafa Dervishoglou'], '1966-08-15', 'TR', 'Fictional Straits Programme: sanctions evasion'),
  person('SL0011', 'sanctions', 'Konstantinos Papadrakakis', ['Κωνσταντίνος Παπαδρακάκης', 'Kostas Papadrakakis'], '1959-04-23', 'GR', 'Fictional Maritime Programme: shipping of embargoed goods'),
  person('SL0012', 'sanctions', 'Jorge Luis Mendívil Ocampo', ['Jorge Mendivil', 'J. L. Mendivil Ocampo'], '1975-10-09', 'VE', 'Fictional Andean Programme: narcotics trafficking'),
  person('SL0013', 'sanctions', 'Chen Weiliang', ['Weiliang Chen', 'Chan Wai Leung'], '1969-07-07', 'HK', 'Fictional Pacific Programme: export control violations'),
  person('SL0014', 'sanctions', 'Kim Song-chol', ['Kim Song Chol', 'Song-Chol Kim'], '1971-03-01', 'KP', 'Fictional Peninsula Programme: proliferation financing'),
  person('SL0015', 'sanctions', 'Ibrahim Musa Danjuma-Okeke', ['Ibrahim Danjuma Okeke'], '1973-12-12', 'NG', 'Fictional Sahel Programme: armed group financing'),
  person('SL0016', 'sanctions', 'Aleksandr Valeryevich Proshkin', ['Александр Валерьевич Прошкин', 'Alexander Proschkin', 'Aleksander Proszkin'], '1980-02-27', 'RU', 'Fictional Eastern Programme: cyber operations'),
  person('SL0017', 'sanctions', 'Svetlana Igorevna Mirolyubova', ['Светлана Игоревна Миролюбова', 'Swetlana Miroljubowa'], '1985-06-19', 'RU', 'Fictional Eastern Programme: disinformation'),
  person('SL0018', 'sanctions', 'Goran Vukadinović', ['Горан Вукадиновић', 'Goran Vukadinovic'], '1962-11-25', 'RS', 'Fictional Balkan Programme: obstruction of a peace process'),
  person('SL0019', 'sanctions', 'Nasser Abdelaziz Bouteflani', ['Naser Abd al-Aziz Boutaflani'], '1967-09-03', 'DZ', 'Fictional Maghreb Programme: asset freeze'),
  person('SL0020', 'sanctions', 'Tariq Jameel Rahmanzai', ['Tarek Jamil Rahmanzay'], '1976-01-30', 'AF', 'Fictional Highland Programme: terrorist financing'),
  person('SL0021', 'pep', 'Marguerite Delacroix-Vasseur', ['Marguerite Delacroix Vasseur'], '1963-05-17', 'FR', 'Fictional minister of infrastructure (2017–2022)'),
  person('SL0022', 'pep', 'Henrik Østergaard-Lindqvist', ['Henrik Ostergaard Lindqvist', 'Henrik Oestergaard'], '1958-02-08', 'DK', 'Fictional governor of a central bank'),
  person('SL0023', 'pep', 'Alessandro Benedetti-Quaranta', ['Alessandro Quaranta'], '1970-10-28', 'IT', 'Fictional senator; chair of a defence committee'),
  person('SL0024', 'pep', 'Zofia Wiśniewska-Krawczyk', ['Zofia Wisniewska Krawczyk'], '1966-04-12', 'PL', 'Fictional deputy minister of finance'),
  person('SL0025', 'pep', 'Ioannis Karamanlidis', ['Ιωάννης Καραμανλίδης', 'Yannis Karamanlidis'], '1961-12-03', 'GR', 'Fictional mayor of a regional capital'),
  person('SL0026', 'pep', 'Radu Constantinescu-Popa', ['Radu Constantinescu Popa'], '1964-08-22', 'RO', 'Fictional head of a state-owned energy company'),
  person('SL0027', 'pep', 'Baroness Philippa Aldwych-Hartley', ['Philippa Aldwych Hartley', 'Pippa Aldwych-Hartley'], '1955-01-14', 'GB', 'Fictional member of a legislature; former ambassador'),
  person('SL0028', 'pep', 'Sir Malcolm Ravenscroft-Tighe', ['Malcolm Ravenscroft Tighe'], '1952-06-30', 'GB', 'Fictional senior judge (retired 2021)'),
  person('SL0029', 'pep', 'Oluwaseun Adebayo-Lawal', ['Seun Adebayo Lawal'], '1971-09-09', 'NG', 'Fictional state governor'),
  person('SL0030', 'pep', 'Juan Pablo Echeverría Salcedo', ['Juan Pablo Echeverria', 'J. P. Echeverria Salcedo'], '1968-11-11', 'CO', 'Fictional member of a national congress'),
  person('SL0031', 'pep', 'Nurlan Serikovich Abenov', ['Нурлан Серикович Абенов', 'Nurlan Abenow'], '1969-03-26', 'KZ', 'Fictional deputy governor of a province'),
  person('SL0032', 'pep', 'Leyla Hüseynova-Məmmədova', ['Leyla Huseynova Mammadova', 'Leila Guseinova'], '1977-07-13', 'AZ', 'Fictional head of a state customs committee'),
  person('SL0033', 'pep', 'Pieter-Jan Vanderstraeten', ['Pieter Jan Van der Straeten'], '1962-02-19', 'BE', 'Fictional chief of a national police force'),
  person('SL0034', 'pep', 'Ingrid Sæthre-Holmboe', ['Ingrid Saethre Holmboe'], '1960-10-05', 'NO', 'Fictional minister of fisheries'),
  person('SL0035', 'pep', 'Dragan Milošević-Tadić', ['Dragan Milosevic Tadic', 'Драган Милошевић-Тадић'], '1965-05-27', 'RS', 'Fictional director of a state bank'),
  company('SL0101', 'Zolotaya Gavan Trading LLC', ['ООО Золотая Гавань', 'Golden Harbour Trading', 'Zolotaya Gavan Treyding'], 'RU', 'Fictional Eastern Programme: owned by SL0001'),
  company('SL0102', 'Severnyi Potok Logistika JSC', ['АО Северный Поток Логистика', 'Severny Potok Logistics'], 'RU', 'Fictional Eastern Programme: sanctions evasion'),
  company('SL0103', 'Nourbakhsh Petrochemical Industries', ['Nurbakhsh Petrochemical', 'NPI Kish'], 'IR', 'Fictional Plateau Programme: proliferation financing'),
  company('SL0104', 'Aegean Star Shipping SA', ['Αιγαίο Αστήρ Ναυτιλιακή', 'Aigaio Astir Naftiliaki'], 'GR', 'Fictional Maritime Programme: shipping of embargoed goods'),
  company('SL0105', 'Kestrel Ridge Minerals Ltd', ['Kestrel Ridge Mining'], 'CD', 'Fictional Great Lakes Programme: conflict minerals'),
  company('SL0106', 'Haddadin Brothers General Contracting', ['Haddadeen Bros Contracting'], 'SY', 'Fictional Levant Programme: owned by SL0009'),
  company('SL0107', 'Pacific Lotus Electronics Co Ltd', ['Pacific Lotus Electronic Company'], 'HK', 'Fictional Pacific Programme: export control violations'),
  company('SL0108', 'Mendivil Ocampo Agroindustrial SAS', ['Agroindustrial Mendivil'], 'VE', 'Fictional Andean Programme: owned by SL0012'),
  company('SL0109', 'Vukadinović Arms Trading d.o.o.', ['Vukadinovic Arms Trading'], 'RS', 'Fictional Balkan Programme: arms trafficking'),
  company('SL0110', 'Blue Crescent Money Exchange', ['Al Hilal al Azraq Exchange', 'Blue Crescent Exchange House'], 'AE', 'Fictional Gulf Programme: terrorist financing'),
];
